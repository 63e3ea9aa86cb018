"""The adapter's sentences all come from the catalog, and fit Discord's limits for command
metadata."""
import re

import pytest

from tests.discord.adapter_kit import REPO
from ttr_bot.discord.commands.info import HELP_KEYS
from ttr_bot.discord.commands.lobby import LEVELS, MAPS, VARIANTS
from ttr_bot.engine.cards import CARD_NAMES
from ttr_bot.i18n import LOCALES, catalog, forms

EN = catalog("en")
SOURCES = list((REPO / "ttr_bot" / "discord").rglob("*.py")) + [REPO / "bot.py"]


def test_every_literal_key_in_the_adapter_is_in_the_english_catalog():
    used = set()
    for path in SOURCES:
        used |= set(re.findall(r'(?<![\w{])"(bot\.[a-z0-9_.]*[a-z0-9_])"', path.read_text()))
    used.discard("bot.py")
    missing = sorted(k for k in used if k not in EN)
    assert not missing
    assert len(used) > 100


def test_keys_built_at_run_time_exist():
    keys = [f"bot.card.{c}" for c in CARD_NAMES] + [f"bot.map.{m}" for m in MAPS]
    keys += [f"bot.variant.{v}" for v in VARIANTS] + [f"bot.level.{lv}" for lv in LEVELS]
    keys += [f"bot.lang.{code}" for code in LOCALES + ("auto",)]
    keys += [f"bot.btn.{op}" for op in ("join", "leave", "start")]
    keys += [f"bot.lobby.{s}" for s in ("started", "cancelled")]
    keys += [f"bot.end.bonus.{b}" for b in ("longest_path", "globetrotter", "stations")]
    keys += [f"bot.cmd.{k.split()[-1]}" for k in HELP_KEYS]
    keys += [f"bot.seat.{r}" for r in ("left", "replaced", "timeout")]   # Handover.reason
    assert [k for k in keys if k not in EN] == []


def test_command_texts_fit_discord_limits():
    for key, text in EN.items():
        if key.startswith(("bot.cmd.", "bot.opt.")):
            assert 1 <= len(text) <= 100, key
        if key.startswith(("bot.map.", "bot.variant.", "bot.level.", "bot.lang.", "bot.card.")):
            assert 1 <= len(text) <= 100, key


def _fields(text):
    import string
    return {f[1] for f in string.Formatter().parse(text) if f[1]}


def test_translations_of_the_bot_texts_use_only_known_placeholders():
    for loc in LOCALES:
        for key, value in catalog(loc).items():
            if key.startswith("bot.") and key in EN:
                known = set().union(*map(_fields, forms(EN[key])))
                assert all(_fields(text) <= known for text in forms(value)), (loc, key)



@pytest.mark.asyncio
async def test_every_command_a_text_names_exists():
    """"/ttr stats" in a sentence must be a command the player can type (they moved under
    /ttr me and /ttr server when /ttr reached Discord's 25 subcommands)."""
    from ttr_bot.discord.bot import TTRBot
    from ttr_bot.discord.config import Config
    bot = TTRBot(Config(token=None), sync_only=True)
    await bot.setup_hook()
    paths = {c.qualified_name for c in bot.ttr.walk_commands()}
    named = set()
    texts = [text for loc in LOCALES for value in catalog(loc).values() for text in forms(value)]
    # and the pages a server's owner follows
    texts += [(REPO / name).read_text() for name in (
        "README.md", "docs/discord-setup.md", "docs/ratings.md", "docs/record-format.md",
        "docs/commands.md", "docs/pictures.md", "docs/computer-players.md")]
    for text in texts:
        named |= set(re.findall(r"/(ttr(?: [a-z]+){1,2})", text))
    # "/ttr server stats" is named whole; "/ttr hand shows" is /ttr hand and a word after it
    unknown = sorted(n for n in named if n not in paths and n.rsplit(" ", 1)[0] not in paths)
    assert not unknown
    assert {"ttr server stats", "ttr me language"} <= paths and len(named) > 10
