# Software verification: the firmware image, the signed manifest checked at boot, its signature, the flash read as the board sees it, the checks while running.
