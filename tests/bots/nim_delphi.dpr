{ Nim, normal play, in Delphi's dialect without a mode directive (the judge compiles in Delphi mode): Result, dynamic arrays }
program NimDelphi;
{$APPTYPE CONSOLE}
uses SysUtils;
var Heaps: array of Integer;
function NimSum: Integer;
var i: Integer;
begin
  Result := 0;
  for i := 0 to High(Heaps) do Result := Result xor Heaps[i];
end;
var s, i, c, a, b: Integer; line: string; moved: Boolean;
begin
  SetLength(Heaps, 0);
  while not EOLn do begin Read(c); SetLength(Heaps, Length(Heaps) + 1); Heaps[High(Heaps)] := c; end;
  ReadLn;
  while True do
  begin
    s := NimSum; moved := False;
    for i := 0 to High(Heaps) do
      if (Heaps[i] xor s) < Heaps[i] then
      begin
        WriteLn(i + 1, ' ', Heaps[i] - (Heaps[i] xor s)); Flush(Output);
        Heaps[i] := Heaps[i] xor s; moved := True; Break;
      end;
    if not moved then
    begin
      c := 0;
      for i := 0 to High(Heaps) do if Heaps[i] > Heaps[c] then c := i;
      if Heaps[c] = 0 then Halt;
      WriteLn(c + 1, ' ', Heaps[c]); Flush(Output); Heaps[c] := 0;
    end;
    if EOF then Halt;
    ReadLn(a, b); Heaps[a - 1] := Heaps[a - 1] - b;
  end;
end.
