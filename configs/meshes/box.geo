// Unit cube [0,1]^3 meshed with tetrahedra (the seed suite's "3D FE",
// 000_... Table 3, 4). saga sets the element size with gmsh -clmax h.
// Physical groups: surfaces "bottom", "top", "sides"; volume "domain".
Point(1) = {0, 0, 0};
Point(2) = {1, 0, 0};
Point(3) = {1, 1, 0};
Point(4) = {0, 1, 0};
Line(1) = {1, 2};
Line(2) = {2, 3};
Line(3) = {3, 4};
Line(4) = {4, 1};
Curve Loop(1) = {1, 2, 3, 4};
Plane Surface(1) = {1};
out[] = Extrude {0, 0, 1} { Surface{1}; };
// out[0]: the top, out[1]: the volume, out[2..5]: the sides.
Physical Surface("bottom") = {1};
Physical Surface("top") = {out[0]};
Physical Surface("sides") = {out[2], out[3], out[4], out[5]};
Physical Volume("domain") = {out[1]};
