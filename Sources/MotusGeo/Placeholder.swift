// MotusGeo: see its issue
