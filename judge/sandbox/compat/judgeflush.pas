{ Loaded before every Pascal bot (fpc -Fa): its standard output is flushed at every write,
  as it is on a terminal, so that an IOI-style bot that never calls Flush(Output) moves
  over a pipe too. }
unit judgeflush;

interface

implementation

initialization
  TextRec(Output).FlushFunc := TextRec(Output).InOutFunc;
end.
