"""The table service: the Discord-free lifecycle of lobbies and games."""

from tables.outcome import Actor, Board, Choice, Controls, DirectMessage, LobbyCard, Outcome, Post, Refusal, StaleButton
from tables.service import TableService, parse_options

__all__ = ["Actor", "Board", "Choice", "Controls", "DirectMessage", "LobbyCard", "Outcome", "Post", "Refusal",
           "StaleButton", "TableService", "parse_options"]
