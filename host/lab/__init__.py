# tapis lab: a gaming laboratory's submission pack (issue 47, docs/lab.md).
