(* A counter of words. *)
open Printf

module SMap = Map.Make (String)

type t = { counts : int SMap.t; total : int }

type mode = Exact | Folded

exception Empty of string

let empty = { counts = SMap.empty; total = 0 }

(** [add word t] counts one more [word]. *)
let add word t =
  let n = try SMap.find word t.counts with Not_found -> 0 in
  { counts = SMap.add word (n + 1) t.counts; total = t.total + 1 }

let rec add_all words t =
  match words with
  | [] -> t
  | w :: rest -> add_all rest (add w t)

module Report = struct
  (** Print every count, one per line. *)
  let print t = SMap.iter (fun w n -> printf "%s %d\n" w n) t.counts
end

let fold_case = fun s -> String.lowercase_ascii s
