## (fragment: see Makefile.am)
