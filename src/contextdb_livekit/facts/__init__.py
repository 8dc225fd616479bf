"""A line's typed caller facts, declared as one table of kinds (`kinds.FactKinds`): their slots,
sentences, who may be told them, how long they are kept; what they say against a day
(`cautions`); their retention (`retention`).
"""
