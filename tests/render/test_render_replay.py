"""`python -m ttr_bot.replay FILE --png OUT.png` writes the board as it stands at the end."""
import io
import json
import random
from pathlib import Path

from PIL import Image

from ttr_bot import replay
from ttr_bot.engine.dealer import Dealer
from ttr_bot.engine.game import Game
from ttr_bot.game_record import action_to_json, export_record
from ttr_bot.maps import load_board
from ttr_bot.render import render_board

REPO = Path(__file__).resolve().parents[2]


def test_replay_writes_the_final_board(tmp_path, capsys):
    board = load_board("europe")
    names = ["Zoë", "Øystein", "Renée"]
    game = Game(board, 3, Dealer(4))
    rng = random.Random(4)
    actions = []
    while not game.over and len(actions) < 120:
        seat = game.to_move()[0]
        action = rng.choice(game.legal_actions(seat))
        actions.append(action_to_json(game, action, names))
        game.apply(action)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(export_record(game, names, actions), ensure_ascii=False),
                      encoding="utf-8")
    out = tmp_path / "board.png"
    assert replay.main([str(record), "--png", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["turn"] == game.turn
    data = out.read_bytes()
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG" and 1600 <= img.width <= 2000
    assert data == render_board(game, names)
