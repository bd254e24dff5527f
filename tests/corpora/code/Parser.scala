package example.parse

import scala.util.Try
import scala.collection.mutable

/** A parsed token. */
case class Token(kind: String, text: String)

trait Lexer {
  def next(): Option[Token]
}

/** Splits text into tokens. Whitespace separated. */
class SimpleLexer(input: String) extends Lexer {
  private val parts = mutable.Queue(input.split(" ")*)

  def next(): Option[Token] =
    if (parts.isEmpty) None else Some(classify(parts.dequeue()))
}

object Parser {
  val MaxTokens = 1000

  def parse(input: String): List[Token] = {
    val lexer = new SimpleLexer(input)
    Iterator.continually(lexer.next()).takeWhile(_.isDefined).flatten.toList
  }
}

def classify(text: String): Token =
  Token(if (Try(text.toInt).isSuccess) "num" else "word", text)
