"""What the tests (tests/) and the developer's tools (tools/) share: the test doubles and the
game makers both sides drive the bot with. Neither the bot nor its image uses any of it.

    fakediscord/    a socket-level fake Discord (REST + gateway) the real, unmodified bot runs
                    against; every request is checked against Discord's OpenAPI description,
                    data/discord-api-spec/openapi.json (MIT), and its hard limits
    e2e_driver.py   Table and Player: the real bot over the fake, players driven through
                    interactions like people; open_game
    endkit.py       a game's end on a busy worker pool (the final post waited for)
    pool_tasks.py   worker-pool tasks that keep a worker busy (endkit's, the pool tests')
    sample_games.py random and greedy games, a greedy game's record, a record as film input
    agent_games.py  games between computer players, as the arena plays them
    phone.py        how a card's text reads on a phone (the "one screen" measure)

The arrows (tests/test_architecture.py enforces them): tests -> testkit, tools -> testkit,
both -> ttr_bot; testkit -> ttr_bot only (never tests, never tools); tools never import tests,
and tests import tools only where a tool is what the test is about (the arena, the card
picture); ttr_bot and bot.py import none of tests, tools and testkit.
"""
