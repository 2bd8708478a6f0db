import os
import sys

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)  # the shared drivers in tests/ (ecarte_driver) import plainly
