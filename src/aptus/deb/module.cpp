// deb module
