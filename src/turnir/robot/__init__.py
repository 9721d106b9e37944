"""The online judge robot "Magic" (rules A-0..A-6): lag tracking, checks, decisions, engine pool.

The rules themselves are pure and live in ``turnir.domain.robot_rules``; this package feeds
them: ``game`` (the game model fed by the server's events), ``engine`` (evaluations: the
``Evaluator`` protocol, the Stockfish pool, a scripted fake), ``robot`` (registering games and
running the checks), ``decision`` (what a check decided and why), ``scheduler`` (driving the
checks by a clock), ``store`` and ``sink`` (where decisions and results go), ``api`` and
``schemas`` (HTTP), ``pgn`` and ``replay`` (recorded games) and ``simulate`` (synthetic rounds).
See ``docs/robot.md``.
"""
