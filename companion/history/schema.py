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

# Migration 5: the people of every play (a team game's sides and their
# members), the start player as a person, not-scored seats, plays ignored in
# statistics, expansions, and uuids compared without regard to case. It only
# adds columns and tables, so it applies on top of whatever migration 4 did to
# ``plays``. People are taken from the stored score file where it names a
# team's members; a Shibuya play without a score file whose sides are "Red" and
# "Blue" (the names companion gives teams) is a team play whose members are not
# known; every other seat is one person. ``name_key`` is a Python function the
# history registers on its connection before migrating.
_MEMBER = "json_extract(plays.score_file, '$.players[{side}].members[{member}]')"
_TEAM_FILE = (
    "plays.game = 'shibuya' AND plays.score_file IS NOT NULL AND json_valid(plays.score_file) "
    "AND json_type(plays.score_file, '$.players[0].members') = 'array' "
    "AND json_type(plays.score_file, '$.players[1].members') = 'array' "
    "AND json_array_length(plays.score_file, '$.players[0].members') = 2 "
    "AND json_array_length(plays.score_file, '$.players[1].members') = 2 "
    "AND json_array_length(plays.score_file, '$.players') = 2 "
    + " ".join(
        f"AND json_type(plays.score_file, '$.players[{s}].members[{m}]') = 'text'"
        for s in (0, 1)
        for m in (0, 1)
    )
)
_UNKNOWN_TEAM = (
    "plays.game = 'shibuya' AND (plays.score_file IS NULL OR NOT json_valid(plays.score_file)) "
    "AND (SELECT group_concat(lower(name), ',') FROM "
    "(SELECT name FROM play_players WHERE play_id = plays.id ORDER BY seat)) = 'red,blue'"
)
MIGRATIONS += (
    (
        5,
        "people and sides, start person, not-scored seats, ignored plays, expansions",
        (
            "ALTER TABLE plays ADD COLUMN ignored INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE plays ADD COLUMN expansions TEXT NOT NULL DEFAULT '[]'",
            "ALTER TABLE plays ADD COLUMN start_player INTEGER",
            "ALTER TABLE play_players ADD COLUMN scored INTEGER NOT NULL DEFAULT 1",
            """CREATE TABLE play_people (
                play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                side INTEGER NOT NULL,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL,
                anonymous INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (play_id, position)
            )""",
            "CREATE INDEX play_people_by_key ON play_people (name_key, play_id)",
            "CREATE INDEX plays_by_uuid_nocase ON plays (uuid COLLATE NOCASE)",
            """UPDATE plays SET start_player = (
                SELECT seat FROM play_players
                WHERE play_players.play_id = plays.id AND play_players.start_player = 1)""",
            f"""INSERT INTO play_people (play_id, position, side, name, name_key)
                SELECT plays.id, member * 2 + side.n,
                    side.n, CASE side.n * 2 + member
                        WHEN 0 THEN {_MEMBER.format(side=0, member=0)}
                        WHEN 1 THEN {_MEMBER.format(side=0, member=1)}
                        WHEN 2 THEN {_MEMBER.format(side=1, member=0)}
                        ELSE {_MEMBER.format(side=1, member=1)} END,
                    ''
                FROM plays, (SELECT 0 AS n UNION ALL SELECT 1) AS side,
                    (SELECT 0 AS member UNION ALL SELECT 1)
                WHERE coalesce(({_TEAM_FILE}), 0)""",
            f"""INSERT INTO play_people (play_id, position, side, name, name_key)
                SELECT pp.play_id, pp.seat, pp.seat, pp.name, ''
                FROM play_players AS pp JOIN plays ON plays.id = pp.play_id
                WHERE NOT coalesce(({_TEAM_FILE}), 0)
                    AND NOT coalesce(({_UNKNOWN_TEAM}), 0)""",
            "UPDATE play_people SET name_key = name_key(name)",
        ),
    ),
)

# Migration 6: what the statistics read, kept beside the plays so that `history
# stats` reads a few aggregates instead of every seat of every play: each
# person's row carries its play's game and time and its side's result, each
# play its top and winning scores and its margin of victory, and every two
# people on different sides of a play are a row of `play_pairs` (who finished
# above whom). The same statements fill them for every play when migrating and
# for each play written afterwards (`{ids}` is the condition on the play id).
# Also the uuids another app (BG Stats) knows people by, so that an export
# gives the same people the same uuids again.
DERIVED: tuple[str, ...] = (
    """UPDATE plays SET (top_score, winning_score, margin) = (
        SELECT max(CASE WHEN scored THEN total END),
            max(CASE WHEN scored AND winner THEN total END),
            CASE WHEN max(CASE WHEN scored AND winner THEN total END) IS NULL THEN NULL
                WHEN max(CASE WHEN scored AND NOT winner THEN total END) IS NOT NULL
                THEN max(CASE WHEN scored AND winner THEN total END)
                    - max(CASE WHEN scored AND NOT winner THEN total END)
                WHEN min(winner) THEN 0 END
        FROM play_players WHERE play_players.play_id = plays.id)
    WHERE plays.id {ids}""",
    """UPDATE play_people SET (game, played_at, winner, total) = (
        SELECT plays.game, plays.played_at, pp.winner, CASE WHEN pp.scored THEN pp.total END
        FROM plays JOIN play_players AS pp
            ON pp.play_id = plays.id AND pp.seat = play_people.side
        WHERE plays.id = play_people.play_id)
    WHERE play_people.play_id {ids}""",
    """INSERT INTO play_pairs (play_id, a_key, b_key, a_position, b_position, a_above, b_above)
    SELECT a.play_id, a.name_key, b.name_key, a.position, b.position,
        CASE WHEN sa.rank > 0 AND sb.rank > 0 THEN sa.rank < sb.rank
            ELSE sa.winner AND NOT sb.winner END,
        CASE WHEN sa.rank > 0 AND sb.rank > 0 THEN sb.rank < sa.rank
            ELSE sb.winner AND NOT sa.winner END
    FROM play_people AS a
    JOIN play_people AS b
        ON b.play_id = a.play_id AND b.side <> a.side AND b.name_key > a.name_key
    JOIN play_players AS sa ON sa.play_id = a.play_id AND sa.seat = a.side
    JOIN play_players AS sb ON sb.play_id = b.play_id AND sb.seat = b.side
    WHERE a.anonymous = 0 AND b.anonymous = 0 AND a.play_id {ids}""",
)
COUNTED = "ignored = 0 AND status = 'final'"
"""The plays the statistics count (the condition of the partial index ``plays_counted``)."""
NOT_COUNTED = "ignored OR status <> 'final'"
"""The plays they leave out (the condition of the partial index ``plays_not_counted``)."""
MIGRATIONS += (
    (
        6,
        "what the statistics read, kept with each play; the uuids other apps know people by",
        (
            "ALTER TABLE plays ADD COLUMN top_score INTEGER",
            "ALTER TABLE plays ADD COLUMN winning_score INTEGER",
            "ALTER TABLE plays ADD COLUMN margin INTEGER",
            "ALTER TABLE play_people ADD COLUMN game TEXT",
            "ALTER TABLE play_people ADD COLUMN played_at TEXT",
            "ALTER TABLE play_people ADD COLUMN winner INTEGER",
            "ALTER TABLE play_people ADD COLUMN total INTEGER",
            """CREATE TABLE play_pairs (
                play_id INTEGER NOT NULL REFERENCES plays(id) ON DELETE CASCADE,
                a_key TEXT NOT NULL,
                b_key TEXT NOT NULL,
                a_position INTEGER NOT NULL,
                b_position INTEGER NOT NULL,
                a_above INTEGER NOT NULL,
                b_above INTEGER NOT NULL,
                PRIMARY KEY (a_key, b_key, play_id, a_position, b_position)
            ) WITHOUT ROWID""",
            """CREATE TABLE player_uuids (
                name_key TEXT PRIMARY KEY,
                uuid TEXT NOT NULL
            ) WITHOUT ROWID""",
            *(statement.format(ids="IS NOT NULL") for statement in DERIVED),
            "DROP INDEX play_people_by_key",
            # `anonymous` is a column too, so that the index covers the queries.
            "CREATE INDEX play_people_stats ON play_people "
            "(name_key, game, played_at, play_id, winner, total, anonymous) WHERE anonymous = 0",
            f"CREATE INDEX plays_counted ON plays "
            f"(game, top_score, played_at, winning_score, margin, ignored, status) "
            f"WHERE {COUNTED}",
            f"CREATE INDEX plays_not_counted ON plays (id) WHERE {NOT_COUNTED}",
        ),
    ),
)

# Migration 7: ratings kept between calls (see companion.history.rating_cache). Triggers count
# every change to what ratings read other than a play added (`play_edits`): a
# play removed or changed, or its sides or people, whoever makes the change.
# Adding plays costs nothing more: the kept ratings note how many plays that
# count come up to their last rated play, so a play added before it shows as a
# different count there. (A later migration that rewrites plays is counted too.)
_COUNT = "UPDATE play_edits SET count = count + 1"
MIGRATIONS += (
    (
        7,
        "ratings kept between calls, a count of the changes to the plays, two indexes",
        (
            """CREATE TABLE play_edits (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                count INTEGER NOT NULL
            )""",
            "INSERT INTO play_edits (id, count) VALUES (1, 0)",
            f"CREATE TRIGGER play_removed AFTER DELETE ON plays BEGIN {_COUNT}; END",
            "CREATE TRIGGER play_changed AFTER UPDATE OF id, played_at, game, status, ignored "
            f"ON plays BEGIN {_COUNT}; END",
            "CREATE TRIGGER side_changed AFTER UPDATE OF play_id, seat, name, total, rank, "
            f"winner, scored ON play_players BEGIN {_COUNT}; END",
            f"CREATE TRIGGER side_removed AFTER DELETE ON play_players BEGIN {_COUNT}; END",
            "CREATE TRIGGER person_changed AFTER UPDATE OF play_id, side, position, name, "
            f"anonymous ON play_people BEGIN {_COUNT}; END",
            f"CREATE TRIGGER person_removed AFTER DELETE ON play_people BEGIN {_COUNT}; END",
            # The plays that count in play order: what comes after the last
            # rated play, and how many come up to it, are read from here.
            f"CREATE INDEX plays_in_order ON plays (played_at, id) WHERE {COUNTED}",
            # The plays with a length, for the average lengths in the statistics.
            "CREATE INDEX plays_timed ON plays (game, duration_min) "
            f"WHERE duration_min > 0 AND {COUNTED}",
            # The kept ratings: one row of state (the changes counted and the
            # plays that count up to the last rated one, when they were kept),
            # each scope ('' for every game together) with its rated plays, and
            # each person's rating in it.
            """CREATE TABLE rating_state (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                edits INTEGER NOT NULL,
                counted INTEGER NOT NULL,
                model TEXT NOT NULL,
                last_played_at TEXT,
                last_id INTEGER
            )""",
            """CREATE TABLE rating_scopes (
                scope TEXT PRIMARY KEY,
                position INTEGER NOT NULL,
                plays INTEGER NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE rating_slots (
                scope TEXT NOT NULL,
                key TEXT NOT NULL,
                name TEXT NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                plays INTEGER NOT NULL,
                PRIMARY KEY (scope, key)
            ) WITHOUT ROWID""",
        ),
    ),
)


# Migration 8: what a club's ledger needs to sync with this history (see
# companion.history.sync_local). Each play's version: a change counter, the time
# of its last change, the ledger's counter it was made from (``base``, NULL when
# it never was synced), whether it waits to go up (``dirty``) and whether it was
# deleted (a tombstone: the uuid stays after the play is gone). Triggers keep
# them, whoever makes the change: a play added, edited (``History.replace``
# deletes and adds it again), deleted, or one of its sides or people changed (a
# person renamed or merged into another, in any play: ``history rename``
# rewrites each play, which travels as an edit); a rename made in place (a
# person's name key updated) is noted in ``person_renames`` too. Also this
# history's own identity among a club's tables, and what it knows of the
# club's ledger.
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
_BUMP = (
    f"UPDATE play_versions SET counter = counter + 1, changed_at = {_NOW}, dirty = 1, "
    "deleted = 0 WHERE uuid = (SELECT uuid FROM plays WHERE id = {play})"
)
MIGRATIONS += (
    (
        8,
        "each play's version, tombstones and renames for syncing with a club's ledger",
        (
            """CREATE TABLE play_versions (
                uuid TEXT PRIMARY KEY COLLATE NOCASE,
                counter INTEGER NOT NULL,
                changed_at TEXT NOT NULL,
                base INTEGER,
                dirty INTEGER NOT NULL,
                deleted INTEGER NOT NULL
            ) WITHOUT ROWID""",
            f"""INSERT OR IGNORE INTO play_versions
                (uuid, counter, changed_at, base, dirty, deleted)
                SELECT uuid, 1, {_NOW}, NULL, 1, 0 FROM plays""",
            "CREATE INDEX play_versions_waiting ON play_versions (uuid) WHERE dirty = 1",
            """CREATE TABLE person_renames (
                old_key TEXT NOT NULL,
                new_name TEXT NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (old_key, new_name)
            ) WITHOUT ROWID""",
            f"""CREATE TABLE club_table (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                table_id TEXT NOT NULL DEFAULT ({NEW_UUID})
            )""",
            "INSERT INTO club_table (id) VALUES (1)",
            """CREATE TABLE club_state (
                ledger TEXT PRIMARY KEY,
                shown TEXT NOT NULL,
                last_seq INTEGER NOT NULL,
                last_sync TEXT,
                pushed INTEGER NOT NULL DEFAULT 0,
                pulled INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID""",
            f"""CREATE TRIGGER version_play_added AFTER INSERT ON plays BEGIN
                INSERT INTO play_versions (uuid, counter, changed_at, base, dirty, deleted)
                VALUES (new.uuid, 1, {_NOW}, NULL, 1, 0)
                ON CONFLICT (uuid) DO UPDATE SET counter = counter + 1,
                    changed_at = excluded.changed_at, dirty = 1, deleted = 0;
            END""",
            f"""CREATE TRIGGER version_play_removed AFTER DELETE ON plays BEGIN
                UPDATE play_versions SET counter = counter + 1, changed_at = {_NOW}, dirty = 1,
                    deleted = 1 WHERE uuid = old.uuid;
            END""",
            "CREATE TRIGGER version_play_changed AFTER UPDATE OF uuid, played_at, game, "
            "score_file, result, location, notes, duration_min, source, ignored, expansions, "
            f"start_player, status ON plays BEGIN {_BUMP.format(play='new.id')}; END",
            "CREATE TRIGGER version_side_changed AFTER UPDATE OF seat, name, total, rank, "
            "winner, scored, start_player ON play_players "
            f"BEGIN {_BUMP.format(play='new.play_id')}; END",
            "CREATE TRIGGER version_side_removed AFTER DELETE ON play_players "
            f"BEGIN {_BUMP.format(play='old.play_id')}; END",
            "CREATE TRIGGER version_person_changed AFTER UPDATE OF position, side, name, "
            f"name_key, anonymous ON play_people BEGIN {_BUMP.format(play='new.play_id')}; END",
            "CREATE TRIGGER version_person_removed AFTER DELETE ON play_people "
            f"BEGIN {_BUMP.format(play='old.play_id')}; END",
            f"""CREATE TRIGGER person_renamed AFTER UPDATE OF name_key ON play_people
                WHEN old.name_key <> new.name_key BEGIN
                INSERT OR REPLACE INTO person_renames (old_key, new_name, at)
                VALUES (old.name_key, new.name, {_NOW});
            END""",
        ),
    ),
)


# Migration 9: renames and merges travel to a club's ledger as renames. Every
# rename made here (``history rename``, or a person's name key changed in
# place) is noted in ``rename_log`` in order, with an id of its own, and ``sent`` once
# the ledger has it; the in-place renames noted before are noted there too.
# A rename that came from the ledger is applied, not noted again.
MIGRATIONS += (
    (
        9,
        "renames noted to travel to a club's ledger",
        (
            """CREATE TABLE rename_log (
                n INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                old_name TEXT NOT NULL,
                new_name TEXT NOT NULL,
                at TEXT NOT NULL,
                sent INTEGER NOT NULL DEFAULT 0
            )""",
            f"""INSERT INTO rename_log (id, old_name, new_name, at)
                SELECT {NEW_UUID}, old_key, new_name, at FROM person_renames ORDER BY at""",
            "DROP TRIGGER person_renamed",
            f"""CREATE TRIGGER person_renamed AFTER UPDATE OF name_key ON play_people
                WHEN old.name_key <> new.name_key BEGIN
                INSERT OR REPLACE INTO person_renames (old_key, new_name, at)
                VALUES (old.name_key, new.name, {_NOW});
                INSERT INTO rename_log (id, old_name, new_name, at)
                SELECT {NEW_UUID}, old.name_key, new.name, {_NOW}
                WHERE NOT EXISTS (SELECT 1 FROM rename_log WHERE sent = 0
                    AND old_name = old.name_key AND new_name = new.name);
            END""",
        ),
    ),
)
MIGRATIONS += (
    (
        10,
        "team members' names by the name rule; a renamed name's spelling",
        (
            # Members were once stored as typed ("Aki\r", "\n\nWinner: Blue"); the
            # key of a name ignores that already, so nobody is renamed.
            "UPDATE play_people SET name = stored_name(name) WHERE name <> stored_name(name)",
            # A person's earlier names are shown as they were written.
            "ALTER TABLE player_uuids ADD COLUMN name TEXT",
        ),
    ),
)
# Migration 11: what other apps wrote that we do not use, kept so that a round trip
# gives it back. ``play_extras``: a play's own record in the app's file (its seats'
# too, one per person in seat order) and what the play said when it came in (its
# ``content``: an export writes the app's values back while the play is unchanged).
# ``app_records``: the app's record of a player, game or place, by our key for it.
MIGRATIONS += (
    (
        11,
        "what other apps wrote that we do not use, kept for the round trip",
        (
            """CREATE TABLE IF NOT EXISTS play_extras (
                play_id INTEGER PRIMARY KEY,
                app TEXT NOT NULL,
                content TEXT NOT NULL,
                record TEXT NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS app_records (
                app TEXT NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL,
                record TEXT NOT NULL,
                PRIMARY KEY (app, kind, key)
            )""",
        ),
    ),
)
# Migration 12: what a club's merges and conflicts need
# here. ``base_entry``: each play's entry as this table last had it from the
# ledger (or sent it), the version both sides started from when it changed
# both here and at another table (see companion.club.merge). The table's name
# chosen by a person and a per-file marker that tells a copy of this file
# from the original (``token``, renewed at each sync and kept in the ledger).
# ``told``: the last conflict of the ledger this table was told about; the
# ledger's rows set aside here (a row a table cannot take) with why.
MIGRATIONS += (
    (
        12,
        "bases for merging a club's edits, the table's name, rows set aside",
        (
            "ALTER TABLE play_versions ADD COLUMN base_entry TEXT",
            "ALTER TABLE club_table ADD COLUMN name TEXT",
            "ALTER TABLE club_table ADD COLUMN token TEXT",
            "ALTER TABLE club_state ADD COLUMN told INTEGER NOT NULL DEFAULT 0",
            """CREATE TABLE club_set_aside (
                ledger TEXT NOT NULL,
                seq INTEGER NOT NULL,
                uuid TEXT NOT NULL,
                why TEXT NOT NULL,
                at TEXT NOT NULL,
                PRIMARY KEY (ledger, seq)
            ) WITHOUT ROWID""",
        ),
    ),
)
# Migration 13: play order breaks ties of time by uuid, the same at every table of a
# club, not by id, which is each table's own number (see companion.history.play_order);
# the two indexes of play order follow it.
MIGRATIONS += (
    (
        13,
        "play order by time, then uuid",
        (
            "DROP INDEX IF EXISTS plays_by_time",
            "CREATE INDEX plays_by_time ON plays (played_at, uuid)",
            "DROP INDEX IF EXISTS plays_in_order",
            f"CREATE INDEX plays_in_order ON plays (played_at, uuid) WHERE {COUNTED}",
        ),
    ),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]
