"""Run the Ticket to Ride Discord bot.

    python bot.py                    run the bot (needs DISCORD_TOKEN; see docs/discord-setup.md)
    python bot.py sync [--guild ID]  push the slash commands to Discord, then exit
    python bot.py sync --global      push them globally even when TTR_DEV_GUILD is set

Configuration comes from the environment and a .env file beside you, if there is one:
DISCORD_TOKEN, TTR_DB (default ./ttr.sqlite3), TTR_DEV_GUILD (default server for `sync`:
a server's commands update at once, global ones can take a while), TTR_LOG_LEVEL.
Commands are synced only when asked, never on every start: Discord limits how often a bot
may push them, and they rarely change.
"""
import argparse
import asyncio
import inspect
import logging
import signal
import sys
import tempfile

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
  python -m ttr_bot.bench                engine speed figures
"""


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="bot.py", description="Ticket to Ride on Discord")
    sub = parser.add_subparsers(dest="command")
    sync = sub.add_parser("sync", help="push the slash commands to Discord and exit")
    where = sync.add_mutually_exclusive_group()
    where.add_argument("--guild", type=int, help="a server id: its commands update at once")
    where.add_argument("--global", dest="global_", action="store_true",
                       help="push global commands even if TTR_DEV_GUILD is set")
    return parser.parse_args(argv)


def offline_demo():
    """Play the offline demo game if that tool is installed; never fail because of it."""
    try:
        from ttr_bot.demo import main as demo_main
    except ImportError:
        return
    out = tempfile.mkdtemp(prefix="ttr-demo-")
    print(f"Playing an offline demo game (pictures in {out}):\n", flush=True)
    try:
        params = inspect.signature(demo_main).parameters
        by_name = next((n for n in ("out_dir", "out", "output", "outdir") if n in params), None)
        if by_name:
            demo_main(**{by_name: out})
        else:
            demo_main(["--out", out])
    except SystemExit:
        pass
    except Exception as exc:   # the demo is a courtesy: the message above is what matters
        print(f"(the demo could not run: {exc})")


async def sync_commands(config, guild_id):
    import discord

    from ttr_bot.discord.bot import TTRBot
    bot = TTRBot(config, sync_only=True)
    async with bot:
        await bot.login(config.token)
        if guild_id:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            synced = await bot.tree.sync(guild=guild)
            print(f"Synced {len(synced)} command(s) to server {guild_id} (available now).")
        else:
            synced = await bot.tree.sync()
            print(f"Synced {len(synced)} global command(s) (may take a while to appear).")


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
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

    from ttr_bot.discord.bot import TTRBot
    bot = TTRBot(config)
    # `docker stop` sends SIGTERM: shut down as on Ctrl+C (timers stopped, posts finished,
    # database closed) instead of being killed mid-write
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        logging.getLogger("ttr_bot").error(
            "Discord refused the token. Reset it in the developer portal and update DISCORD_TOKEN.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
