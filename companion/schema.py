"""The history database's schema, as numbered migrations.

Each migration is a list of SQL statements applied in one transaction. A
database at an older version is copied to a backup file beside it before it
is migrated (see :mod:`companion.history`).
"""

from __future__ import annotations

# A random version-4 UUID computed by SQLite, for rows that predate the uuid column.
NEW_UUID = (
    "lower(printf('%s-%s-4%s-%s%s-%s', hex(randomblob(4)), hex(randomblob(2)), "
    "substr(hex(randomblob(2)), 2), substr('89ab', 1 + abs(random()) % 4, 1), "
    "substr(hex(randomblob(2)), 2), hex(randomblob(6))))"
)

MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (
        1,
        "plays and their players",
        (
            """CREATE TABLE plays (
                id INTEGER PRIMARY KEY,
                played_at TEXT NOT NULL,
                game TEXT NOT NULL,
                score_file TEXT NOT NULL,
                result TEXT NOT NULL
            )""",
            """CREATE TABLE play_players (
                play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                name TEXT NOT NULL,
                total INTEGER NOT NULL,
                rank INTEGER NOT NULL,
                winner INTEGER NOT NULL,
                PRIMARY KEY (play_id, seat)
            )""",
            "CREATE INDEX plays_by_game ON plays (game, played_at)",
            "CREATE INDEX play_players_by_name ON play_players (name)",
        ),
    ),
    (
        2,
        "uuids, location, notes, duration, start player, imported plays",
        (
            """CREATE TABLE plays_v2 (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                played_at TEXT NOT NULL,
                game TEXT NOT NULL,
                score_file TEXT,
                result TEXT NOT NULL,
                location TEXT NOT NULL DEFAULT '',
                notes TEXT NOT NULL DEFAULT '',
                duration_min INTEGER,
                source TEXT NOT NULL DEFAULT 'companion'
            )""",
            f"""INSERT INTO plays_v2 (id, uuid, played_at, game, score_file, result)
                SELECT id, {NEW_UUID}, played_at, game, score_file, result FROM plays""",
            """CREATE TABLE play_players_v2 (
                play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
                seat INTEGER NOT NULL,
                name TEXT NOT NULL,
                total INTEGER NOT NULL,
                rank INTEGER NOT NULL,
                winner INTEGER NOT NULL,
                start_player INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (play_id, seat)
            )""",
            """INSERT INTO play_players_v2 (play_id, seat, name, total, rank, winner)
                SELECT play_id, seat, name, total, rank, winner FROM play_players""",
            "DROP TABLE play_players",
            "DROP TABLE plays",
            "ALTER TABLE plays_v2 RENAME TO plays",
            "ALTER TABLE play_players_v2 RENAME TO play_players",
            "CREATE INDEX plays_by_game ON plays (game, played_at)",
            "CREATE INDEX plays_by_time ON plays (played_at, id)",
            "CREATE INDEX play_players_by_name ON play_players (name, play_id)",
        ),
    ),
)
MIGRATIONS += (
    (
        3,
        "games in progress and their event logs",
        (
            """CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                game TEXT NOT NULL,
                kind TEXT NOT NULL,
                started_at TEXT NOT NULL,
                updated_at TEXT NOT NULL,
                status TEXT NOT NULL DEFAULT 'active',
                play_id INTEGER REFERENCES plays(id) ON DELETE SET NULL,
                note TEXT NOT NULL DEFAULT ''
            )""",
            """CREATE TABLE session_events (
                session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                at TEXT NOT NULL,
                key TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (session_id, seq)
            )""",
            "CREATE INDEX sessions_by_status ON sessions (status, updated_at)",
        ),
    ),
)
MIGRATIONS += (
    (
        4,
        "one number per game, interim plays, the terminal that holds a game",
        (
            # The highest game number handed out: a game in progress and the play it
            # becomes share one number, and plays saved directly take the next one.
            """CREATE TABLE game_numbers (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                last INTEGER NOT NULL
            )""",
            """INSERT INTO game_numbers (id, last) VALUES (1, max(
                coalesce((SELECT max(id) FROM plays), 0),
                coalesce((SELECT max(id) FROM sessions), 0)))""",
            # 'final', or 'interim' for a scoring that does not end the game (Shogun's
            # first winter): kept, shown, but out of wins and stats.
            "ALTER TABLE plays ADD COLUMN status TEXT NOT NULL DEFAULT 'final'",
            # The process that drives a game in progress (JSON: pid, host, token,
            # process start), and when it last showed it was alive.
            "ALTER TABLE sessions ADD COLUMN holder TEXT",
            "ALTER TABLE sessions ADD COLUMN holder_beat TEXT",
        ),
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]
