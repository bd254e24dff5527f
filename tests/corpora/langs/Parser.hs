module Text.Tiny.Parser
  ( Parser (..)
  , char
  , many1
  ) where

import Data.Char (isDigit)
import qualified Data.Map as M

-- | A parser of strings.
newtype Parser a = Parser { runParser :: String -> Maybe (a, String) }

-- | Parse one given character.
char :: Char -> Parser Char
char c = Parser go
  where
    go (x : xs) | x == c = Just (c, xs)
    go _ = Nothing
{-# INLINE char #-}

-- | Apply a parser one or more times.
many1 :: Parser a -> Parser [a]
many1 p = undefined

data Token = Number Int | Plus
  deriving (Show, Eq)

class Pretty a where
  pretty :: a -> String
  prettyList :: [a] -> String
  prettyList = concatMap pretty

instance Pretty Token where
  pretty (Number n) = show n
  pretty Plus = "+"

digits :: M.Map Char Int
digits = M.fromList (zip "0123456789" [0 ..])

-- | The first parser, or the second when the first fails.
(<|>) :: Parser a -> Parser a -> Parser a
p <|> q = p
