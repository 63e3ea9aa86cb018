"""Why an action was refused. The engine gives a message key and its parameters; the message
catalog (ttr_bot.i18n) turns them into a sentence in the player's language."""


class Illegal(Exception):
    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"Illegal({self.key!r}, {self.params!r})"


class DeckError(Exception):
    """A fixed deck order (a record's reshuffle) that cannot be used: not a permutation."""
