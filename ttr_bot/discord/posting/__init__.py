"""Posting out: what the service owes, sent to Discord. The outbox worker (outbox_worker.py;
refused destinations: refusals.py; Discord's transient errors: retries.py) hands each owed row
to `Delivery` (delivery.py), which picks the renderer registered for its message type (one
module per post kind, listed in renderers.py); the turn card (turn_card.py), the pictures
(pictures.py, cooldown.py) and the final post's film and ratings (finale.py) are theirs."""
