(ns geometry.shapes
  (:require [clojure.string :as str]
            [geometry.util :refer [square]]))

(def pi-approx 3.14159)

(defprotocol Shape
  (area [shape] "The area of a shape."))

(defrecord Circle [r]
  Shape
  (area [_] (* pi-approx (square r))))

(defn describe
  "A line of text about a shape."
  [shape]
  (str/join " " ["area" (area shape)]))

(defn- round2 [x]
  (/ (Math/round (* 100.0 x)) 100.0))

(defmacro with-shape [binding & body]
  `(let ~binding ~@body))
