// Unit square [0,1]^2 (the seed suite's "2D FE, square", 000_... Table 3, 5b).
// saga sets the element size with gmsh -clmax h (problem.h in a config).
// Physical groups: the four sides (Dirichlet by default: the whole boundary).
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
Physical Curve("bottom") = {1};
Physical Curve("right") = {2};
Physical Curve("top") = {3};
Physical Curve("left") = {4};
Physical Surface("domain") = {1};
