"""/ttr me confirm's settings as stored in the player's preference document: the defaults when
nothing (or nonsense) was stored, and which claims ask."""
from ttr_bot.service import CLAIMS_FROM, ConfirmSettings


def test_defaults_when_nothing_or_nonsense_was_stored():
    assert ConfirmSettings.read({}) == ConfirmSettings(True, CLAIMS_FROM) == ConfirmSettings()
    bad = ConfirmSettings.read({"tickets": "no", "claims_from": 99})
    assert bad == ConfirmSettings()
    assert ConfirmSettings.read({"tickets": False, "claims_from": True}).claims_from == CLAIMS_FROM
    chosen = ConfirmSettings.read(ConfirmSettings(False, 6).to_json())
    assert chosen == ConfirmSettings(False, 6)


def test_which_claims_ask():
    default = ConfirmSettings()
    assert not default.asks_claim(3) and default.asks_claim(4) and default.asks_claim(8)
    assert not ConfirmSettings(claims_from=0).asks_claim(12)      # 0: never
    assert ConfirmSettings(claims_from=1).asks_claim(1)
