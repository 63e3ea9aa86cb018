"""Command descriptions and choice names in the users' languages, from the same catalog.

Commands declare their texts with `text(key)`: English from en.json, and the key for this
translator, which discord.py asks for every locale when it syncs the command tree. A language
whose catalog lacks the key falls back to English (Discord shows the default).
"""
from discord import app_commands

from ..i18n import DEFAULT, catalog, normalize, t


def text(key, **params):
    """A translatable string for command metadata (descriptions, choice names)."""
    return app_commands.locale_str(t(key, DEFAULT, **params), key=key, params=params)


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string, locale, context):
        key = string.extras.get("key")
        loc = normalize(locale.value)
        if not key or loc == DEFAULT or not str(locale.value).lower().startswith(loc):
            return None
        text = catalog(loc).get(key)
        if not isinstance(text, str):       # command texts have no plural forms
            return None
        params = string.extras.get("params")
        return t(key, loc, **params) if params else text
