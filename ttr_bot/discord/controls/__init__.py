"""Controls in: what a click on a button or a menu does. The persistent components and their
custom ids (components.py, ids.py), the registry from a component's kind to its handler
(clicks.py), what the claim and station menus offer and how a payment is chosen (menus.py,
payment_choices.py, claim_choices.py), and one move end to end, from a click or a slash command
to the service and back (moves.py)."""
