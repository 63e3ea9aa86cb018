"""Errors the store raises.

Every driver (SQLite, PostgreSQL) raises these and only these for the expected failures (each
maps its database's constraint violations onto them), so the service can catch them without
knowing which database is underneath.
"""


class StoreError(Exception):
    """Base class: something about the stored data or the database prevents the operation."""


class NotFound(StoreError):
    """The game (or seat, or timer) the caller names does not exist."""


class ChannelBusy(StoreError):
    """A channel already has a game in the lobby or in play; only one is allowed per channel."""

    def __init__(self, channel_id: int, game_id: int | None = None):
        self.channel_id = channel_id
        self.game_id = game_id
        which = f" (game {game_id})" if game_id is not None else ""
        super().__init__(f"channel {channel_id} already has an open game{which}")


class SeatTaken(StoreError):
    """The seat number, or the user, is already in that game."""


class SeatIsBot(StoreError):
    """The seat is already played by a computer (it cannot be handed over again)."""


class VoteOpen(StoreError):
    """The game already has an open vote (one at a time)."""


class WrongStatus(StoreError):
    """The game is not in a status that allows the operation (e.g. an action on a finished game)."""

    def __init__(self, game_id: int, status: str, wanted: str):
        self.game_id = game_id
        self.status = status
        self.wanted = wanted
        super().__init__(f"game {game_id} is {status}; this needs it to be {wanted}")


class StaleSequence(StoreError):
    """Someone else applied an action first: the caller's view of the game is out of date.

    The service reacts by reloading the game and re-validating the action; nothing was written.
    """

    def __init__(self, game_id: int, expected: int, actual: int):
        self.game_id = game_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"game {game_id}: expected to be at action {expected}, but it is at {actual}"
        )


class CorruptData(StoreError):
    """Stored data fails validation on load. Never skipped silently: a game must not resume
    from a log with holes in it."""


class CorruptLog(CorruptData):
    """An action row is unreadable, or the sequence has a gap or ends early."""

    def __init__(self, game_id: int, seq: int, reason: str):
        self.game_id = game_id
        self.seq = seq
        self.reason = reason
        super().__init__(f"game {game_id}: action log corrupt at seq {seq}: {reason}")


class CorruptSnapshot(CorruptData):
    """The state snapshot is unreadable or does not match the game's action count."""

    def __init__(self, game_id: int, seq: int, reason: str):
        self.game_id = game_id
        self.seq = seq
        self.reason = reason
        super().__init__(f"game {game_id}: snapshot corrupt at seq {seq}: {reason}")


class StoreUnavailable(StoreError):
    """The database cannot be read or written now: its file became read-only, its disk is
    full, another program holds its lock past the busy timeout, it is damaged, or its disk
    fails. Raised instead of the driver's error, so the operation that met it is refused as
    a whole (its transaction rolled back: nothing of it was written) and the caller can say
    so; the same call works again once the fault is gone. `where` names the file (or the
    server), `kind` is one of `REMEDIES`, and the message says what the operator should do."""

    REMEDIES = {
        "read_only": "cannot be written (read-only): give the bot's user write access to the "
                     "file and its folder, or remount the disk read-write",
        "full": "has no room left: free space on its disk",
        "locked": "is locked by another program past the busy timeout: end that program's "
                  "transaction (a database browser, a backup tool, a stuck process)",
        "corrupt": "is damaged: stop the bot and restore it from a backup",
        "io": "cannot be read or written (a disk error): check the disk and the file",
    }

    def __init__(self, where: str, kind: str, detail: str, remedy: str | None = None):
        """`remedy`: what to do, where the driver knows better than `REMEDIES[kind]`."""
        self.where, self.kind, self.detail = where, kind, detail
        super().__init__(f"the database {where} {remedy or self.REMEDIES[kind]} ({detail})")
