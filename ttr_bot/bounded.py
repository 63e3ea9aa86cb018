"""Memory that cannot only grow: per-key locks that live while in use, and size-bounded maps and
sets that forget the least recently used entries. A bot in thousands of servers sees far more
users and channels than it should keep in memory; what these forget is either re-read from the
store on the next use (languages, channel lookups) or harmless to redo (a courtesy notice)."""
import asyncio
import weakref
from collections import OrderedDict


class KeyedLocks:
    """One asyncio.Lock per key, kept only while someone holds or awaits it."""

    def __init__(self):
        self._locks = weakref.WeakValueDictionary()

    def __getitem__(self, key):
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self):
        return len(self._locks)


class LRUDict(OrderedDict):
    """A dict of at most `maxsize` entries; reading or writing an entry makes it the newest."""

    def __init__(self, maxsize):
        super().__init__()
        self.maxsize = maxsize

    def __getitem__(self, key):
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def setdefault(self, key, default=None):
        if key in self:
            return self[key]
        self[key] = default
        return default

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.maxsize:
            self.popitem(last=False)


class LRUSet:
    """A set of at most `maxsize` members, forgetting the oldest first."""

    def __init__(self, maxsize):
        self._members = LRUDict(maxsize)

    def add(self, member):
        self._members[member] = True

    def discard(self, member):
        self._members.pop(member, None)

    def __contains__(self, member):
        return member in self._members

    def __len__(self):
        return len(self._members)
