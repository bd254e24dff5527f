library(stats)
source("helpers.R")

#' Trimmed mean of a numeric vector
#'
#' @param x a numeric vector
#' @param trim the fraction trimmed at each end
#' @export
trimmed_mean <- function(x, trim = 0.1) {
  x <- clean(x)
  mean(x, trim = trim)
}

#' Scale a vector to the unit interval
rescale = function(x) {
  rng <- range(x, na.rm = TRUE)
  (x - rng[1]) / diff(rng)
}

clean <- function(x) x[!is.na(x)]

Summary <- setRefClass("Summary", fields = list(values = "numeric"))

setGeneric("describe", function(obj) standardGeneric("describe"))
