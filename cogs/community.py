"""Community commands: ``/profile``, ``/history``, ``/leaderboard`` and ``/ratings`` (the server's rating rules and
their rebuild). Thin: each parses its input, asks the table service and sends what it returns, through the game cog's
answering (defer first, refusals privately, errors logged)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.controls import DynamicView, HistoryButton
from tables import Actor, TableService
from tables.community import PERIODS, RATING_HELP, HistoryPage

if TYPE_CHECKING:
    from cogs.client import Blockhouse
    from cogs.game import GameCog

log = logging.getLogger(__name__)


def history_kwargs(page: HistoryPage) -> dict[str, Any]:
    """A page of past games, privately, with buttons to the newest, newer, older and oldest pages."""
    post = page.post
    embed = discord.Embed(title=post.title, description=post.description, colour=post.colour)
    embed.set_footer(text=post.footer)
    view = DynamicView()
    if page.pages > 1:
        first, last = page.page == 1, page.page == page.pages
        for target, tag, off in ((1, "first", first), (page.page - 1, "prev", first),
                                 (page.page + 1, "next", last), (page.pages, "last", last)):
            view.add_item(HistoryButton(page.user_id, page.guild_id, page.game, max(1, min(page.pages, target)), tag,
                                        disabled=off))
    return {"embed": embed, "view": view, "allowed_mentions": discord.AllowedMentions.none()}


def _who(interaction: discord.Interaction, member: discord.abc.User | None) -> Actor:
    user = member or interaction.user
    return Actor(user.id, user.display_name)


class CommunityCog(commands.Cog):
    """Profiles, past games, leaderboards and the server's ratings."""

    ratings_group = app_commands.Group(name="ratings", description="How this server rates games (Manage Server)")

    def __init__(self, bot: Blockhouse, games: GameCog) -> None:
        self.bot = bot
        self.games = games  # its answering: defer, refusals, delivery

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def _game_autocomplete(self, interaction: discord.Interaction, current: str
                                 ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=g.name, value=g.key) for g in self.service.registry.all()
                if current.lower() in g.name.lower() or current.lower() in g.key][:25]

    @app_commands.command(name="profile", description="A player's games, wins and ratings in this server")
    @app_commands.describe(member="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        server = interaction.guild.name if interaction.guild else ""
        await self.games._run(interaction, self.service.profile(interaction.guild_id, server,
                                                                _who(interaction, member)))

    @app_commands.command(name="history", description="A player's finished games, newest first, with links")
    @app_commands.describe(member="Whose games (default: yours)", game="Only this game")
    async def history(self, interaction: discord.Interaction, member: discord.User | None = None,
                      game: str | None = None) -> None:
        if not await self.games._defer(interaction):
            return
        page = await self.games._ask(interaction, self.service.past_games(interaction.guild_id,
                                                                          _who(interaction, member), game,
                                                                          asker_id=interaction.user.id))
        if page is not None:
            await interaction.followup.send(ephemeral=True, **history_kwargs(page))

    history.autocomplete("game")(_game_autocomplete)

    async def on_history_page(self, interaction: discord.Interaction, user_id: int, guild_id: int | None,
                              game: str, page: int) -> None:
        """A page button under a private /history: the same message shows that page."""
        if not await self.games._defer(interaction, private=False):
            return
        name = await self._name_of(interaction, user_id)
        shown = await self.games._ask(interaction, self.service.past_games(guild_id, Actor(user_id, name),
                                                                           game or None, page,
                                                                           asker_id=interaction.user.id))
        if shown is not None:
            await interaction.edit_original_response(**history_kwargs(shown))

    async def _name_of(self, interaction: discord.Interaction, user_id: int) -> str:
        if interaction.guild is not None:
            member = interaction.guild.get_member(user_id)
            if member is not None:
                return member.display_name
        user = self.bot.get_user(user_id)
        return user.display_name if user is not None else "A player"

    @app_commands.command(name="leaderboard", description="The best players of a game in this server")
    @app_commands.describe(game="Which game", period="All time, or rated afresh from the last 30 or 7 days")
    @app_commands.choices(period=[app_commands.Choice(name=words, value=key) for key, (words, _) in PERIODS.items()])
    async def leaderboard(self, interaction: discord.Interaction, game: str, period: str = "all") -> None:
        server = interaction.guild.name if interaction.guild else ""
        await self.games._run(interaction, self.service.leaderboard(interaction.guild_id, server, game, period,
                                                                    _who(interaction, None)))

    leaderboard.autocomplete("game")(_game_autocomplete)

    @ratings_group.command(name="settings", description="Whether games against bots, or with a seat handed to a "
                                                        "bot, are rated (Manage Server to change)")
    @app_commands.describe(bots="Rate games against bots (each bot level one player on the leaderboard)",
                           handed="A game where a player's seat was handed to a bot: unrated, or rated for those "
                                  "who stayed")
    @app_commands.choices(handed=[app_commands.Choice(name="unrated", value="unrated"),
                                  app_commands.Choice(name="rated for the people who stayed", value="stayed")])
    async def ratings_settings(self, interaction: discord.Interaction, bots: bool | None = None,
                               handed: str | None = None) -> None:
        perms = interaction.permissions
        await self.games._run(interaction, self.service.rating_settings(
            interaction.guild_id, bool(perms and perms.manage_guild), bots, handed))

    @ratings_group.command(name="rebuild", description="Recompute every rating of this server from its stored "
                                                       "results (Manage Server)")
    async def ratings_rebuild(self, interaction: discord.Interaction) -> None:
        perms = interaction.permissions
        await self.games._run(interaction, self.service.rebuild_ratings(interaction.guild_id,
                                                                        bool(perms and perms.manage_guild)))

    @ratings_group.command(name="help", description="How ratings work here, in words")
    async def ratings_help(self, interaction: discord.Interaction) -> None:
        if await self.games._defer(interaction):  # (a followup before any answer is refused: Unknown Webhook)
            await self.games._private(interaction, RATING_HELP)
