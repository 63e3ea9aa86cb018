"""The engine's legal claims for a view's seat, asked once per decision."""
from __future__ import annotations

from typing import Any

from ...engine.actions import ClaimRoute

_LAST: list[Any] = [None, []]    # (view, its legal claims): one decision asks several times


def legal_claims(v: Any) -> list[ClaimRoute]:
    """The engine's legal claims for the view's seat now."""
    if _LAST[0] is not v:
        _LAST[0] = v
        _LAST[1] = [a for a in v.legal_actions() if isinstance(a, ClaimRoute)]
    out: list[ClaimRoute] = _LAST[1]
    return out
