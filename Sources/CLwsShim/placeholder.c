int clws_placeholder(void) { return 0; }
