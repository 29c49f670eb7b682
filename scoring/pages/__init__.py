"""The scoring pages, a face: the views (sign-in, a club's matches, the table entry page, the sheet, the
replay, the rulings), their forms, the arrangement of what they show (display) and their routes (urls).
They read through the selectors and write through the services."""
