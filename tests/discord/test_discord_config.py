"""Configuration and the entry point: without a token, bot.py explains how to get one and
exits cleanly; the environment (and .env) configure the bot."""
import logging
import os
import subprocess
import sys

import pytest

from tests.discord.adapter_kit import REPO
from ttr_bot.discord.config import DEFAULT_DB, ConfigError, load


def run_bot(args, env, cwd):
    return subprocess.run([sys.executable, str(REPO / "bot.py"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def minimal_env():
    # an empty environment, except what the interpreter needs to find its packages
    return {k: v for k, v in os.environ.items() if k in ("PATH", "SYSTEMROOT")}


def test_without_a_token_it_says_how_to_get_one_and_exits_0(tmp_path):
    result = run_bot([], minimal_env(), tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "DISCORD_TOKEN" in out
    assert "New Application" in out and "Reset Token" in out and ".env" in out
    assert "python -m ttr_bot.replay" in out
    assert "Traceback" not in result.stderr


def test_a_token_in_dotenv_is_read(tmp_path, monkeypatch):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc.def\nTTR_DEV_GUILD=42\n")
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("TTR_DEV_GUILD", raising=False)
    monkeypatch.chdir(tmp_path)
    config = load()
    assert config.token == "abc.def" and config.dev_guild == 42
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("TTR_DEV_GUILD", raising=False)


def test_defaults_and_values():
    config = load({})
    assert config.token is None and config.db_path == DEFAULT_DB and config.dev_guild is None
    assert config.log_level == logging.INFO
    config = load({"DISCORD_TOKEN": " t ", "TTR_DB": "/data/ttr.sqlite3", "TTR_LOG_LEVEL": "debug"})
    assert config.token == "t" and config.db_path == "/data/ttr.sqlite3"
    assert config.log_level == logging.DEBUG


@pytest.mark.parametrize("env", [{"TTR_DEV_GUILD": "my-server"}, {"TTR_LOG_LEVEL": "LOUD"}])
def test_bad_values_are_refused_clearly(env):
    with pytest.raises(ConfigError):
        load(env)


def test_the_bot_needs_no_privileged_intents():
    from ttr_bot.discord.bot import intents
    value = intents()
    assert value.guilds
    assert not (value.message_content or value.members or value.presences)


def _real_database(path):
    import asyncio

    from ttr_bot.store import open_store

    async def make():
        store = open_store(str(path))
        await store.open()
        game_id = await store.create_game(guild_id=1, channel_id=2, map="usa", variant="base",
                                          options={}, seed=3, host_id=4, host_name="Ann")
        await store.close()
        return game_id
    asyncio.run(make())


def _newer_schema(path):
    import sqlite3
    _real_database(path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (99, 'x.sql', 0)")
    conn.commit()
    conn.close()


def _torn(path):
    _real_database(path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 3])      # a copy cut short, or a disk that filled up


@pytest.mark.parametrize("damage,remedy", [
    (lambda p: p.write_bytes(b"not a database at all, just text" * 100), "restore it from a backup"),
    (_torn, "restore it from a backup"),
    (_newer_schema, "upgrade the bot"),
])
def test_a_database_it_cannot_use_gets_one_clear_line_and_a_non_zero_exit(tmp_path, damage,
                                                                         remedy):
    db = tmp_path / "ttr.sqlite3"
    damage(db)
    env = dict(minimal_env(), DISCORD_TOKEN="abc.def", TTR_DB=str(db))
    result = run_bot([], env, tmp_path)
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert str(db) in lines[0] and remedy in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


def test_worker_processes():
    assert load({}).workers is None                      # one per core
    assert load({"TTR_WORKERS": "3"}).workers == 3
    assert load({"TTR_WORKERS": "0"}).workers == 0       # none: threads of the bot's process
    for bad in ("-1", "two", "1.5"):
        with pytest.raises(ConfigError, match="TTR_WORKERS"):
            load({"TTR_WORKERS": bad})


def test_shards_and_who_syncs_the_commands():
    one = load({})
    assert not one.sharded and one.my_shards == (1, (0,)) and not one.syncs_commands
    env = {"TTR_SHARD_COUNT": "4", "TTR_SHARD_IDS": " 2, 0 ", "TTR_SYNC": "1"}
    config = load(env)
    assert config.sharded and config.my_shards == (4, (2, 0)) and config.syncs_commands
    assert not load({**env, "TTR_SHARD_IDS": "1,3"}).syncs_commands    # shard 0 syncs, once
    assert load({"TTR_SHARD_COUNT": "2"}).my_shards == (2, (0, 1))      # all, in one process
    assert not load({"TTR_SHARD_COUNT": "2", "TTR_SHARD_IDS": "0"}).syncs_commands  # not asked


def test_a_sharded_bot_runs_only_its_shards_and_serves_only_their_servers():
    import asyncio

    from ttr_bot.discord.bot import ShardedTTRBot, TTRBot, make_bot

    async def build():
        bot = make_bot(load({"TTR_SHARD_COUNT": "2", "TTR_SHARD_IDS": "1"}))
        plain = make_bot(load({}))
        return bot, plain
    bot, plain = asyncio.run(build())
    assert isinstance(bot, ShardedTTRBot) and (bot.shard_count, bot.shard_ids) == (2, [1])
    assert bot.serves(3 << 22) and not bot.serves(2 << 22) and not bot.serves(None)  # DMs: 0
    assert type(plain) is TTRBot and plain.serves(2 << 22) and plain.serves(3 << 22)


@pytest.mark.parametrize("env, says", [
    ({"TTR_SHARD_IDS": "0"}, "needs TTR_SHARD_COUNT"),
    ({"TTR_SHARD_COUNT": "0"}, "1 or more"),
    ({"TTR_SHARD_COUNT": "two"}, "whole number"),
    ({"TTR_SHARD_COUNT": "2", "TTR_SHARD_IDS": "0;1"}, "separated by commas"),
    ({"TTR_SHARD_COUNT": "2", "TTR_SHARD_IDS": "1,2"}, "shard 2 does not exist"),
    ({"TTR_SHARD_COUNT": "2", "TTR_SHARD_IDS": "1,1"}, "twice"),
    ({"TTR_SYNC": "maybe"}, "TTR_SYNC"),
])
def test_bad_shard_settings_are_refused_in_one_line_naming_the_setting(env, says):
    with pytest.raises(ConfigError) as caught:
        load(env)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_the_compose_file_runs_every_shard_once_on_postgresql():
    """docker-compose.yml (read without a YAML library: its bot services' settings are plain
    `KEY: "value"` lines): the shard ids of its bot services split the count between them,
    each service's settings load, and shard 0's process is the one that syncs."""
    import re
    text = (REPO / "docker-compose.yml").read_text()
    common = dict(re.findall(r'^  (TTR_\w+): "?([^"\n]+)"?$', text, re.M))
    ids = re.findall(r'^      TTR_SHARD_IDS: "(\d+(?:,\d+)*)"$', text, re.M)
    configs = [load({**common, "TTR_SHARD_IDS": i, "DISCORD_TOKEN": "t"}) for i in ids]
    count = configs[0].shard_count
    shards = sorted(s for c in configs for s in c.my_shards[1])
    assert count == 2 and shards == list(range(count)), (count, shards)
    assert [c.syncs_commands for c in configs] == [s == "0" for s in ids]
    assert all(c.db_path.startswith("postgresql://") for c in configs)
    assert "condition: service_healthy" in text and "pg_isready" in text and "image: postgres:15" in text


def test_expert_thinking_time_is_a_setting():
    """TTR_EXPERT_SECONDS: the expert computer's time per decision, as a work budget (so a game
    stays reproducible); a factory the worker processes can receive."""
    import pickle

    from ttr_bot.ai.expert import budget_for
    from ttr_bot.service import configured_agents
    assert load({}, dotenv=None).expert_seconds is None and configured_agents(None) is None
    cfg = load({"TTR_EXPERT_SECONDS": "2.5"}, dotenv=None)
    assert cfg.expert_seconds == 2.5
    factory = pickle.loads(pickle.dumps(configured_agents(cfg.expert_seconds)))
    assert factory("expert", seed=1).budget == budget_for(2.5)
    assert factory("hard", seed=1).budget == 8000          # the other levels as they are
    for bad in ("0", "-1", "fast", "60", "nan"):
        with pytest.raises(ConfigError):
            load({"TTR_EXPERT_SECONDS": bad}, dotenv=None)
