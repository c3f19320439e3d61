"""What the hint scenarios share: fairway's --hints switch."""


def hint_args(state):
    return ["--hints", state]


def hints_na(opts):
    """The reason the hint scenarios cannot run, or None."""
    if "--hints" not in opts.fairway_help:
        return "fairway lacks --hints"
    return None
