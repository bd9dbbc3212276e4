int clws_placeholder(void);
