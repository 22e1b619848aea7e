"""Fixtures shared by the table-service tests: a real SQLite file and services over it (defined beside the main
service tests, offered here to every test module of this folder)."""

from tests.tables.test_table_service import bsvc, db, db_file, hsvc, svc

__all__ = ["bsvc", "db", "db_file", "hsvc", "svc"]
