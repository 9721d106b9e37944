"""Use cases: one function each, each owning its transaction (STYLE habit 7).

Every write locks its tournament (``turnir.storage.database``), leaves an audit record of what
changed (who, when, before, after) and is safe to repeat; a ``UserError`` leaves the database
unchanged. The CLI, the web app and the robot call these functions and nothing below them.
"""
