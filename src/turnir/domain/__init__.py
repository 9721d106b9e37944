"""The pure rules of Berserk tournaments: no database, no web, no clock, no global random.

Every module names the rule IDs of ``shared/RULES.md`` it implements.
"""
