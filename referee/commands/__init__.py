"""The ``referee`` command: the command line wires the packages below it and adds nothing of the rules.

``entry`` is the console entry point (tiny, so that start-up is fast and interruptible), ``cli`` the ``referee``
group and the exit-code policy, and one module per command (``check``, ``explain``, ``adjudicate``, ``rules``,
``prove``, ``simulate``, ``play``, ``view``, ``schema``, ``cache``), imported only when that command runs;
``options`` holds the options they share, ``page`` and ``page_template`` render the replay page of
``referee view`` (its data is ``checking/timeline``'s),
``isolate`` a proof run in a forked child under a memory limit, ``progress`` a long batch's progress line. The
library imports none of it.
"""
