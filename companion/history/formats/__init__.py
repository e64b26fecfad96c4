"""The history's file formats, one module each, with its reader and its writer.

- :mod:`.ours`: our own json export (``companion-history``), read and written
  losslessly;
- :mod:`.bgstats`: BG Stats backups (``.bgsplay``);
- :mod:`.bggxml`: BoardGameGeek's play XML (its XML API2 ``plays``, and our
  ``bgg-xml`` export);
- :mod:`.csv_export`: csv, written only;
- :mod:`.bounded`: what the readers share: the limits, bounded reading of a
  file piece by piece, what an import file holds (:class:`~.bounded.Parsed`);
- :mod:`.shared`: what the formats share both ways (BoardGameGeek ids, uuids,
  a play's rows of people, its dates);
- :mod:`.dispatch`: which format a file is, and the module that reads or writes
  it (:func:`~.dispatch.read_history_file`, :func:`~.dispatch.export`).
"""
