{
  Ioiwari sample bot in Pascal: one-step greedy (the same player as ../../ioiwari/greedy.c
  and greedy.py).

  Reads the seven pit counts, then alternately writes its pit and reads the opponent's pit,
  keeping the board itself. It plays the pit that adds the most to its own bank minus what
  the same move gives the opponent, looking no further; ties go to the lowest pit. Every
  move is followed by Flush(Output). It exits when standard input ends.

  Plain Turbo Pascal style (no Result, no classes, no units), so it compiles in Free
  Pascal's default mode as well as in Delphi mode, which the judge uses.

  Build and run by hand:
      fpc -O2 -Mdelphi -ogreedy bots/languages/ioiwari/greedy.pas
      ./greedy        then type  4 3 2 4 2 3 2  and the opponent's pits; Ctrl-D ends.
  (fpc also leaves greedy.o next to the program it writes.)
  See protocols/ioiwari.md.

  Self-contained on purpose (bots run confined), so the sowing rule is a copy of the one
  in judge/games/ioiwari.py.
}
program Greedy;

{$I-} { a failed Read sets IOResult instead of stopping the program with a runtime error }

const
  Pits = 7;
  Full = 5; { a pit never holds more: sowing past a full pit takes a bead out instead }

type
  TBoard = array[0..Pits - 1] of LongInt;

{ Play Pit (1..7) on Board in place; returns the mover's gain minus the opponent's. }
function Sow(var Board: TBoard; Pit: LongInt): LongInt;
var
  I, Hand, Gain: LongInt;
begin
  I := Pit - 1;
  Hand := Board[I];
  Gain := 0;
  Board[I] := 0;
  while Hand > 1 do
  begin
    I := (I + 1) mod Pits;
    if Board[I] = Full then
    begin
      Board[I] := Board[I] - 1;
      Gain := Gain + 1;
    end
    else
    begin
      Board[I] := Board[I] + 1;
      Hand := Hand - 1;
    end;
  end;
  I := (I + 1) mod Pits;
  if (Board[I] >= 1) and (Board[I] < Full) then
  begin { the last bead captures the pit }
    Gain := Gain + Board[I] + 1;
    Board[I] := 0;
  end
  else { the last bead goes to the opponent }
    Gain := Gain - 1;
  Sow := Gain;
end;

{ The pit with the largest immediate gain, the lowest of them on a tie; 0 if none. }
function Choose(const Board: TBoard): LongInt;
var
  Pit, BestPit, BestGain, Gain: LongInt;
  Copy: TBoard;
begin
  BestPit := 0;
  BestGain := 0;
  for Pit := 1 to Pits do
    if Board[Pit - 1] <> 0 then
    begin
      Copy := Board;
      Gain := Sow(Copy, Pit);
      if (BestPit = 0) or (Gain > BestGain) then
      begin
        BestPit := Pit;
        BestGain := Gain;
      end;
    end;
  Choose := BestPit;
end;

var
  Board: TBoard;
  I, Pit: LongInt;

begin
  for I := 0 to Pits - 1 do
  begin
    if SeekEof(Input) then { SeekEof skips blanks and line ends, then tests for the end }
      Halt(0);
    Read(Board[I]);
    if IOResult <> 0 then { not a number: stop, as greedy.c does when scanf fails }
      Halt(0);
  end;
  while True do
  begin
    Pit := Choose(Board);
    if Pit <> 0 then { the board is not empty: our move }
    begin
      WriteLn(Pit);
      Flush(Output);
      Sow(Board, Pit);
    end;
    if SeekEof(Input) then { end of input: the game is over }
      Halt(0);
    Read(Pit);
    if IOResult <> 0 then
      Halt(0);
    if (Pit >= 1) and (Pit <= Pits) then
      Sow(Board, Pit);
  end;
end.
