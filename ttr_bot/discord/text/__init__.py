"""The words: pure functions from the engine's and the service's values to text in the
player's language (the message catalog, ttr_bot/i18n): the turn card's lines and alt texts
(card_text.py), events, hands and tickets (format.py), a map's own state and events
(map_state_text.py, mechanic_events.py), the rules (rules_text.py), the community posts'
and the leaderboard's text, a private board's alt text. Nothing here talks to Discord."""
