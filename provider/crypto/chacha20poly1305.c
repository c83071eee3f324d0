/* STUB: to be written */
