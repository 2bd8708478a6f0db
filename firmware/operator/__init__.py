# The operator: the supervisor's frames (recall, commands, the event log and clears) and the host interface (the operator's link, on the bus or the USB).
