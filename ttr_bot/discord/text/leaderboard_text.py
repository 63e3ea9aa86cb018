"""The texts of a server's records: a page of the leaderboard, a page of the history, and the
link to a game's final post. Pure: service values in, Discord text out (players are mentions,
which Discord shows by name and which the bot sends with every ping turned off)."""
from ...i18n import t
from ...ratings import MIN_GAMES, Z, display_rating
from ...stats import figure, map_name
from .format import fit, sep

CROWN = "👑"


def post_url(guild_id, post):
    """The link to a message (a game's final post) for a client to jump to."""
    return f"https://discord.com/channels/{guild_id}/{post.channel_id}/{post.message_id}"


def where(guild_scope, map_id, loc):
    text = t("bot.stats.where.server" if guild_scope else "bot.stats.where.global", loc)
    return t("bot.stats.where.map", loc, where=text, map=map_name(map_id, loc)) if map_id else text


def leaderboard_text(page, loc):
    """A page of the leaderboard, or why it is empty."""
    lines = [t("bot.board.title", loc, where=where(page.guild_id is not None, page.map_id, loc))]
    if not page.entries:
        if page.map_id:
            lines.append(t("bot.board.empty_map", loc, map=map_name(page.map_id, loc),
                           count=MIN_GAMES))
        else:
            lines.append(t("bot.board.empty", loc, count=MIN_GAMES))
        return "\n".join(lines)
    for e in page.entries:
        params = dict(place=e.place, player=f"<@{e.user_id}>", value=display_rating(e.rating),
                      mu=figure(e.rating.mu), sigma=figure(e.rating.sigma), count=e.games)
        if page.map_id:
            lines.append(t("bot.board.line_map", loc, map_games=e.map_games or 0, **params))
        else:
            lines.append(t("bot.board.line", loc, **params))
    lines.append("")
    lines.append(t("bot.board.footer", loc, page=page.page, pages=page.pages, total=page.total,
                   z=Z, count=MIN_GAMES))
    return fit("\n".join(lines))


def players_text(players, loc):
    out = []
    for p in players:
        text = t("bot.history.player", loc, name=p.name, score=p.score)
        out.append(f"{text} {CROWN}" if p.won else text)
    return sep(loc).join(out)


def history_text(guild_id, page, loc):
    """A page of the history, newest first: number, date, map, players and scores, whether it
    was rated, and the link to its final post; or why it is empty."""
    who = f"<@{page.user_id}>" if page.user_id else t("bot.stats.where.server", loc)
    lines = [t("bot.history.title", loc, who=who)]
    if not page.entries:
        lines.append(t("bot.history.none_user", loc, who=who) if page.user_id
                     else t("bot.history.none", loc))
        return "\n".join(lines)
    for e in page.entries:
        line = t("bot.history.line", loc, game=e.game_id, date=f"<t:{int(e.finished_at)}:d>",
                 map=map_name(e.map_id, loc), players=players_text(e.players, loc))
        if not e.rated:
            line += " · " + t("bot.history.unrated", loc)
        if e.final_post is not None:
            line += " · " + t("bot.history.post", loc, url=post_url(guild_id, e.final_post))
        lines.append(line)
    lines.append("")
    lines.append(t("bot.history.footer", loc, page=page.page, pages=page.pages, total=page.total))
    return fit("\n".join(lines))
