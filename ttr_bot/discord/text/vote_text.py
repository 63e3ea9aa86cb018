"""A vote's words: what it is about, and its post (the question, the count, when it ends or
how it ended)."""
from typing import Any

from ...i18n import t


def vote_what(vote: Any, hosted: Any, loc: str) -> str:
    if vote.kind == "replace":
        return t("bot.vote.what_replace", loc, name=hosted.seats[vote.target_seat].name
                 if vote.target_seat is not None else "?")
    return t("bot.vote.what_cancel", loc)


def vote_text(vote: Any, hosted: Any, loc: str) -> str:
    yes = sum(1 for u in vote.voters if vote.ballots.get(u) is True)
    no = sum(1 for u in vote.voters if vote.ballots.get(u) is False)
    need = len(vote.voters) // 2 + 1
    lines = [t("bot.vote.title", loc, proposer=f"<@{vote.proposer}>",
               what=vote_what(vote, hosted, loc)),
             t("bot.vote.count", loc, yes=yes, no=no, need=need, voters=len(vote.voters),
               names=" ".join(f"<@{u}>" for u in vote.voters))]
    if vote.status == "open":
        lines.append(t("bot.vote.ends", loc, when=f"<t:{int(vote.expires_at)}:R>"))
    else:
        lines.append(t(f"bot.vote.{vote.status}", loc, what=vote_what(vote, hosted, loc)))
    return "\n".join(lines)
