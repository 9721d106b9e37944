"""The draft: seating at draft tables, the draft plan, boosters and the pick/pass engine.

Pure like the rest of ``turnir.domain``; each module names the rules (D-1..D-8) it implements.
"""
