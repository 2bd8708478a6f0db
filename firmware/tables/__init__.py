# How each game sits on the table: what each seat's display shows and what its
# panel buttons mean. The rules stay in firmware/rules; this is presentation.
