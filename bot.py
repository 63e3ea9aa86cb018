"""Run the Ticket to Ride Discord bot.

    python bot.py                    run the bot (needs DISCORD_TOKEN; see docs/discord-setup.md)
    python bot.py sync [--guild ID]  push the slash commands to Discord, then exit
    python bot.py sync --global      push them globally even when TTR_DEV_GUILD is set
    python bot.py migrate-db --from sqlite:///ttr.sqlite3 --to postgresql://user@host/ttr
                                     copy every game and setting into an empty database and
                                     verify the copy (docs/postgresql.md)
    python bot.py doctor [--repair] [--db DB]
                                     check that every open game has the timers it waits on
                                     (a deadline, a computer move, a vote's end...); --repair
                                     re-arms what is missing. Exit status: 0 nothing wrong,
                                     1 something was missing and is re-armed, 4 something is
                                     missing (run again with --repair), 8 could not check

Configuration comes from the environment and a .env file beside you, if there is one:
DISCORD_TOKEN, TTR_DB (default ./ttr.sqlite3), TTR_DEV_GUILD (default server for `sync`:
a server's commands update at once, global ones can take a while), TTR_LOG_LEVEL, and for
several processes TTR_SHARD_COUNT, TTR_SHARD_IDS and TTR_SYNC (docs/scaling.md).
Commands are synced only when asked (`sync`, or TTR_SYNC=1: at start, by the process that runs
shard 0 only), never by default: Discord limits how often a bot may push them, and they
rarely change.
"""
import argparse
import asyncio
import logging
import signal
import sys
import tempfile
from dataclasses import replace

NO_TOKEN = """No DISCORD_TOKEN is set, so the bot cannot connect to Discord.

To run it on Discord:
  1. Open https://discord.com/developers/applications and press "New Application".
  2. In the application's "Bot" page press "Reset Token" and copy the token.
  3. Put it in a file named .env next to bot.py:  DISCORD_TOKEN=your-token-here
  4. Invite the bot and push its commands: see docs/discord-setup.md
     (python bot.py sync --guild YOUR_SERVER_ID), then run: python bot.py

Without Discord you can still try the game:
  python -m ttr_bot.demo                 play a game between computer players, with pictures
  python -m ttr_bot.replay RECORD.json   replay a ttr-record/1 game and print the result
  python -m tools.bench                engine speed figures
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="bot.py", description="Ticket to Ride on Discord")
    sub = parser.add_subparsers(dest="command")
    sync = sub.add_parser("sync", help="push the slash commands to Discord and exit")
    where = sync.add_mutually_exclusive_group()
    where.add_argument("--guild", type=int, help="a server id: its commands update at once")
    where.add_argument("--global", dest="global_", action="store_true",
                       help="push global commands even if TTR_DEV_GUILD is set")
    move = sub.add_parser(
        "migrate-db", help="copy every game, log, snapshot, timer, result and setting into an "
        "empty database (SQLite to PostgreSQL or back), then verify the copy")
    move.add_argument("--from", dest="source", required=True, metavar="DB",
                      help="the database to copy: a SQLite file, sqlite:///path or postgresql://...")
    move.add_argument("--to", dest="target", required=True, metavar="DB",
                      help="an empty database to copy into (it is created or migrated first)")
    move.add_argument("--verify-only", action="store_true",
                      help="copy nothing: check that --to holds a true copy of --from")
    doctor = sub.add_parser(
        "doctor", help="check that every open game has a pending timer for what it waits on; "
        "--repair re-arms what is missing")
    doctor.add_argument("--db", metavar="DB", help="the database: a SQLite file, sqlite:///path "
                        "or postgresql://... (default: TTR_DB, as the bot uses)")
    doctor.add_argument("--repair", action="store_true", help="re-arm the missing timers")
    return parser.parse_args(argv)


DOCTOR_OK, DOCTOR_REPAIRED, DOCTOR_FOUND, DOCTOR_FAILED = 0, 1, 4, 8   # as fsck's


def doctor(args):
    """Check (and with --repair re-arm) the timers of every open game; one line per problem,
    then one of summary. Safe while the bot runs: a re-armed timer is one its handler would
    ignore if it turned out not to be needed."""
    from ttr_bot.discord.config import ConfigError, load
    from ttr_bot.service import GameService
    from ttr_bot.store import StoreError, open_store
    try:
        db = args.db or load().db_path
    except ConfigError as exc:
        print(f"doctor: configuration error: {exc}", file=sys.stderr)
        return DOCTOR_FAILED

    async def check():
        store = open_store(db)
        await store.open()
        try:
            return await GameService(store).invariants.check_timers(repair=args.repair)
        finally:
            await store.close()
    try:
        problems = asyncio.run(check())
    except (StoreError, ValueError, OSError) as exc:
        print(f"doctor: could not check {db}: {exc}", file=sys.stderr)
        return DOCTOR_FAILED
    for p in problems:
        print(p.line(repaired=args.repair))
    if not problems:
        print("doctor: every open game has a pending timer for what it waits on")
        return DOCTOR_OK
    games = len({p.game_id for p in problems})
    if args.repair:
        print(f"doctor: re-armed {len(problems)} missing timer(s) in {games} game(s)")
        return DOCTOR_REPAIRED
    print(f"doctor: {len(problems)} missing timer(s) in {games} game(s); "
          "run `python bot.py doctor --repair` to re-arm them")
    return DOCTOR_FOUND


async def rebuilds_to_snapshot(store, game_id, snapshot):
    """migrate-db's check of a copied game: its log replayed from its seed gives its snapshot."""
    import json

    from ttr_bot.engine.snapshot import to_dict
    from ttr_bot.service import GameService
    game = await GameService(store).moves.rebuild(game_id)
    if json.loads(json.dumps(to_dict(game))) != snapshot.state:
        return "its log does not rebuild to its snapshot"
    return None


def migrate_db(args):
    """Copy and verify; one line of summary, or one line of error and exit status 1."""
    from ttr_bot.store import StoreError
    from ttr_bot.store.transfer import migrate_database
    try:
        report = asyncio.run(migrate_database(args.source, args.target,
                                              check_game=rebuilds_to_snapshot,
                                              verify_only=args.verify_only))
    except (StoreError, ValueError) as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 1
    print(report.summary(), flush=True)
    return 0


def offline_demo():
    """Play the offline demo game (`python -m ttr_bot.demo`) into a temporary folder."""
    from ttr_bot.demo import main as demo_main
    out = tempfile.mkdtemp(prefix="ttr-demo-")
    print(f"Playing an offline demo game (pictures in {out}):\n", flush=True)
    try:
        demo_main(["--out", out])
    except Exception as exc:   # the demo is a courtesy: the message above is what matters
        print(f"(the demo could not run: {exc})")


async def sync_commands(config, guild_id):
    from ttr_bot.discord.bot import TTRBot, sync_tree
    bot = TTRBot(replace(config, shard_count=None, shard_ids=None), sync_only=True)
    async with bot:
        await bot.login(config.token)
        print(await sync_tree(bot, guild_id))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "migrate-db":      # needs no token and no Discord
        return migrate_db(args)
    if args.command == "doctor":          # nor does this
        return doctor(args)
    from ttr_bot.discord.config import ConfigError, load
    try:
        config = load()
    except ConfigError as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        print(NO_TOKEN, flush=True)
        offline_demo()
        return 0

    import discord
    discord.utils.setup_logging(level=config.log_level, root=True)
    if args.command == "sync":
        guild_id = None if args.global_ else (args.guild or config.dev_guild)
        asyncio.run(sync_commands(config, guild_id))
        return 0

    if not database_usable(config.db_path):
        return 2
    from ttr_bot.discord.bot import make_bot
    from ttr_bot.store import StoreError
    bot = make_bot(config)
    # `docker stop` sends SIGTERM: shut down as on Ctrl+C (timers stopped, posts finished,
    # database closed) instead of being killed mid-write
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        logging.getLogger("ttr_bot").error(
            "Discord refused the token. Reset it in the developer portal and update DISCORD_TOKEN.")
        return 1
    except StoreError as exc:     # the database broke between the check and the start
        print(f"Database error: {exc}", file=sys.stderr)
        return 2
    return 0


def database_usable(db):
    """Open (and migrate) the database before connecting to Discord; one clear line naming the
    file and what to do, and False, when it cannot be used."""
    from ttr_bot.store import StoreError, open_store

    async def probe():
        store = open_store(db)
        await store.open()
        await store.close()
    try:
        asyncio.run(probe())
    except (StoreError, ValueError) as exc:
        print(f"Database error: {exc}", file=sys.stderr)
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
