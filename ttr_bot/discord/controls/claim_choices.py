"""What one payment for a route makes on a map with its own claim rules: pure.

On most maps a payment is one claim. Italy's names the ferry cards it spends (worked out from
the cards: the waves they leave uncovered), so a payment still is one claim; Pennsylvania's
takes a share of one of the route's companies, and with 2 players gives the dummy one too, so
a payment may be several claims: the player picks one with a button (`share_choices`). The
engine lists the claims (`PlayerView.claims`); this module only words them.
"""
from dataclasses import replace

from ...engine.actions import ClaimRoute
from ...i18n import t


def claim_of(view, r, cards, seat):
    """The claim paying `cards` for route r makes, for `seat` (the service's stand-in for the
    acting user's); of several (a share to choose), the first: enough to ask the engine
    whether the claim may be made at all. The bare claim when there is none (the engine then
    says why it is refused)."""
    claims = view.claims(r, cards)
    return replace(claims[0], seat=seat) if claims else ClaimRoute(seat, r, tuple(cards))


def ferry_spent(view, r, cards):
    """The ferry cards a claim of route r paid with `cards` spends (0 off Italy's waves)."""
    claims = view.claims(r, cards)
    return claims[0].ferry if claims else 0


def pick(claims, share=None, dummy=None):
    """The claims that take a share of company `share` (and give the dummy `dummy`), as a
    slash command's options say; None: any."""
    return [c for c in claims if (share is None or c.share == share)
            and (dummy is None or c.dummy_share == dummy)]


def share_choices(view, claims, loc):
    """[(share, dummy, label)] for the buttons of `claims` (several of one payment): the
    company whose share the player takes, which share number that is, and with 2 players the
    company of the dummy's share."""
    nxt = {int(c): n for c, n in view.extra["shares"]["next"].items()}
    out = []
    for c in claims:
        if c.dummy_share:
            label = t("bot.share.button_dummy", loc, company=c.share, number=nxt[c.share],
                      dummy=c.dummy_share)
        else:
            label = t("bot.share.button", loc, company=c.share, number=nxt[c.share])
        out.append((c.share, c.dummy_share, label))
    return out
