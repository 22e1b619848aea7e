"""Bloc by Bloc: the cooperative insurrection game (see :mod:`engine.blocbybloc.game`)."""

from engine.blocbybloc.game import BlocByBloc

__all__ = ["BlocByBloc"]
