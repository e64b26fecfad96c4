"""The ledger's schema on PostgreSQL, as numbered migrations (like the local history's).

Plain tables with the constraints that keep the ledger whole: a play is one row
by its folded uuid; its sides and people hang off it (foreign keys, removed
with it); people by their name key with their latest name; places by name;
every change written is a row of ``changes`` (by the ledger's change number);
the version a conflict lost is kept in ``conflicts``. ``seq`` is the ledger's
change number of each play's last change: what a table has not seen yet is
what has a higher one (writers take one lock, so numbers are committed in order).
"""

from __future__ import annotations

FORMAT = "companion-club"
"""The value of ``ledger.format`` in every ledger."""

MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (
        1,
        "plays, sides, people, places, changes and conflicts",
        (
            """CREATE TABLE ledger (
                key text PRIMARY KEY,
                value text NOT NULL
            )""",
            """CREATE TABLE schema_migrations (
                version integer PRIMARY KEY,
                name text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )""",
            "CREATE SEQUENCE change_numbers",
            "CREATE TABLE places (name text PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 200))",
            """CREATE TABLE people (
                name_key text PRIMARY KEY CHECK (length(name_key) <= 200),  -- '': anonymous
                name text NOT NULL
            )""",
            """CREATE TABLE plays (
                uuid text PRIMARY KEY CHECK (length(uuid) BETWEEN 1 AND 100),
                counter bigint NOT NULL CHECK (counter > 0),
                changed_at text NOT NULL,
                origin text NOT NULL,
                seq bigint NOT NULL UNIQUE,
                deleted boolean NOT NULL,
                game text,
                played_at text,
                place text REFERENCES places (name),
                entry jsonb,
                CHECK (deleted = (entry IS NULL)),
                CHECK (deleted OR (game IS NOT NULL AND played_at IS NOT NULL))
            )""",
            """CREATE TABLE sides (
                play_uuid text NOT NULL REFERENCES plays (uuid) ON DELETE CASCADE,
                seat integer NOT NULL CHECK (seat >= 0),
                name text NOT NULL,
                total bigint,
                rank integer,
                winner boolean NOT NULL,
                PRIMARY KEY (play_uuid, seat)
            )""",
            """CREATE TABLE play_people (
                play_uuid text NOT NULL,
                position integer NOT NULL CHECK (position >= 0),
                side integer NOT NULL,
                name_key text NOT NULL REFERENCES people (name_key),
                name text NOT NULL,
                anonymous boolean NOT NULL,
                PRIMARY KEY (play_uuid, position),
                FOREIGN KEY (play_uuid, side) REFERENCES sides (play_uuid, seat) ON DELETE CASCADE
            )""",
            "CREATE INDEX play_people_by_key ON play_people (name_key)",
            """CREATE TABLE changes (
                seq bigint PRIMARY KEY,
                play_uuid text NOT NULL REFERENCES plays (uuid),
                counter bigint NOT NULL,
                changed_at text NOT NULL,
                origin text NOT NULL,
                kind text NOT NULL CHECK (kind IN ('added', 'edited', 'deleted')),
                at timestamptz NOT NULL DEFAULT now()
            )""",
            "CREATE INDEX changes_by_play ON changes (play_uuid)",
            """CREATE TABLE conflicts (
                id bigserial PRIMARY KEY,
                play_uuid text NOT NULL REFERENCES plays (uuid),
                kept_counter bigint NOT NULL,
                kept_origin text NOT NULL,
                lost_counter bigint NOT NULL,
                lost_changed_at text NOT NULL,
                lost_origin text NOT NULL,
                lost_entry jsonb,
                at timestamptz NOT NULL DEFAULT now()
            )""",
        ),
    ),
)
VERSION = MIGRATIONS[-1][0]
"""The ledger version this companion writes and reads."""
