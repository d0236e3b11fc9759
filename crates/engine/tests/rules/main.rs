//! One module per game of the rule book (`docs/games.md`), each testing the
//! rule sentences of its section on hand-built positions and opening deals.

mod common;

mod blondes_and_brunettes;
mod bredulia;
mod fan;
mod house_in_the_woods;
mod house_on_the_hill;
mod krakowski;
mod krug;
mod la_belle_lucie;
mod la_belle_lucie_36;
mod la_belle_lucie_one_redeal;
mod la_belle_lucie_sequences;
mod la_belle_lucie_super_move;
mod melnitsa;
mod nivernaise;
mod novomanernaya;
mod three_shuffles_and_a_draw;
mod trefoil;
mod trilistnik;
