"""The online judge robot "Magic" (rules A-0..A-6): lag tracking, checks, decisions, engine pool.

The rules themselves are pure and live in ``turnir.domain.robot_rules``; this package feeds
them: ``game`` (the game model fed by the server's events), ``engine`` (evaluations),
``robot`` (registering games and running the checks), ``scheduler`` (driving the checks by a
clock), ``store`` and ``sink`` (where decisions go), ``api`` (HTTP), ``pgn`` (recorded games)
and ``simulate`` (synthetic rounds).
"""
