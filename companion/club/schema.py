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
# Version 2: renames and merges travel as renames. Each is one row, once by its
# id (made where it was made), numbered from the same change numbers as the
# plays, so that a table takes plays and renames in the order they were written.
# A ledger upgraded from version 1 has member roles already: each takes on
# ``renames`` the rights it has on ``plays`` (reading, or reading and writing).
MIGRATIONS += (
    (
        2,
        "renames and merges of people",
        (
            """CREATE TABLE renames (
                seq bigint PRIMARY KEY,
                id text NOT NULL UNIQUE CHECK (length(id) BETWEEN 1 AND 100),
                origin text NOT NULL,
                old_name text NOT NULL CHECK (length(old_name) BETWEEN 1 AND 200),
                new_name text NOT NULL CHECK (length(new_name) BETWEEN 1 AND 200),
                made_at text NOT NULL,
                at timestamptz NOT NULL DEFAULT now()
            )""",
            """DO $$
            DECLARE grant_row record;
            BEGIN
                FOR grant_row IN
                    SELECT DISTINCT grantee, privilege_type
                    FROM information_schema.role_table_grants
                    WHERE table_schema = current_schema() AND table_name = 'plays'
                        AND privilege_type IN ('SELECT', 'INSERT')
                        AND grantee <> current_user AND grantee <> 'PUBLIC'
                LOOP
                    EXECUTE format(
                        'GRANT %s ON renames TO %I', grant_row.privilege_type, grant_row.grantee
                    );
                END LOOP;
            END
            $$""",
        ),
    ),
)
# Version 3: the server keeps the order. A play's change number (``seq``) and its
# counter are given by the server itself, in a trigger under the writers' lock,
# whatever a member writes: a member cannot skip tables past games, or push a
# counter out of range. Tables have names (``tables``, with the marker that
# tells a copied history file from its original). A conflict keeps both
# versions whole, the version both started from, and each value that differs;
# it stays open until a person settles it. Member roles take on the new tables
# the rights they have on ``plays``.
MIGRATIONS += (
    (
        3,
        "change numbers kept by the server, tables' names, conflicts to settle",
        (
            """CREATE FUNCTION companion_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(1668052322);
                NEW.seq := nextval('change_numbers');
                IF TG_TABLE_NAME = 'plays' THEN
                    NEW.counter := NEW.seq;
                END IF;
                RETURN NEW;
            END
            $$""",
            # The last change number the server gave, readable by every member
            # (a reader need not have rights on the sequence itself).
            """CREATE FUNCTION companion_last_change() RETURNS bigint LANGUAGE sql STABLE
            SECURITY DEFINER SET search_path FROM CURRENT AS $$
                SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_numbers
            $$""",
            "CREATE TRIGGER plays_stamped BEFORE INSERT OR UPDATE ON plays "
            "FOR EACH ROW EXECUTE FUNCTION companion_stamp()",
            "CREATE TRIGGER renames_stamped BEFORE INSERT OR UPDATE ON renames "
            "FOR EACH ROW EXECUTE FUNCTION companion_stamp()",
            """CREATE TABLE tables (
                id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 100),
                name text CHECK (length(name) <= 100),
                token text CHECK (length(token) <= 100),
                seen_at timestamptz NOT NULL DEFAULT now()
            )""",
            "ALTER TABLE renames ADD COLUMN player_uuid text CHECK (length(player_uuid) <= 100)",
            # The scorer a play's score file was scored by where it was written.
            "ALTER TABLE plays ADD COLUMN scored text CHECK (length(scored) <= 100)",
            "ALTER TABLE conflicts ADD COLUMN kind text NOT NULL DEFAULT 'version'",
            "ALTER TABLE conflicts ADD COLUMN kept_entry jsonb",
            "ALTER TABLE conflicts ADD COLUMN kept_changed_at text",
            "ALTER TABLE conflicts ADD COLUMN base_entry jsonb",
            "ALTER TABLE conflicts ADD COLUMN differs jsonb",
            "ALTER TABLE conflicts ADD COLUMN settled_at timestamptz",
            "ALTER TABLE conflicts ADD COLUMN settled_by text",
            "ALTER TABLE conflicts ADD COLUMN settled_keep text",
            # Conflicts kept before were decided: they are shown as settled.
            "UPDATE conflicts SET settled_at = at, settled_keep = '1'",
            """DO $$
            DECLARE grant_row record;
            BEGIN
                FOR grant_row IN
                    SELECT DISTINCT grantee, privilege_type
                    FROM information_schema.role_table_grants
                    WHERE table_schema = current_schema() AND table_name = 'plays'
                        AND privilege_type IN ('SELECT', 'INSERT', 'UPDATE')
                        AND grantee <> current_user AND grantee <> 'PUBLIC'
                LOOP
                    EXECUTE format(
                        'GRANT %s ON tables TO %I', grant_row.privilege_type, grant_row.grantee
                    );
                    EXECUTE format(
                        'GRANT %s ON conflicts TO %I', grant_row.privilege_type, grant_row.grantee
                    );
                END LOOP;
            END
            $$""",
        ),
    ),
)
VERSION = MIGRATIONS[-1][0]
"""The ledger version this companion writes and reads."""
